"""The local model server the offline models run on, and the behaviours it serves."""
