"""A bridge to UnbelievaBoat's economy: its API client and the transfers between the two
books (the server's UnbelievaBoat cash and the bot's chips)."""
