"""EnviroBench category Legal: deeds, easements and covenants read for environmental liability."""
