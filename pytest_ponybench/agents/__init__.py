"""Agent CLIs behind one seam: an adapter per CLI, a registry by name, one launcher."""

__all__: list[str] = []
