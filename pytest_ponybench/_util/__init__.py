"""Git, processes and text files, each handled in one place."""
