"""Confining what runs in a cell: bubblewrap for the agent, the scorer's sandbox and its warm
zygote.
"""
