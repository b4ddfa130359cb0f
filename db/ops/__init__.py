"""Store operations, each a generator of statements run as one transaction (see db.statements)."""
