"""Play the bot in a browser, no Discord account: the local Discord, the real bot, a web page.

``python -m bot playground`` (or ``make playground``) runs it; see
:mod:`playground.running` for the world and :mod:`playground.web` for the page.
"""
