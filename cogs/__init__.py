"""Discord adapters, one cog per feature: the only package that imports discord.ui."""
