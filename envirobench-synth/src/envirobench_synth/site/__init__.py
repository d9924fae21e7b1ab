"""Site records (issue 15): a seeded site model rendered into the documents of a site file."""
