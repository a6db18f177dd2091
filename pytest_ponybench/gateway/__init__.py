"""The model gateway: one meter for every model call a cell makes."""

__all__: list[str] = []
