"""EnviroBench category Locate: the right document, page and passage of a large site file."""
