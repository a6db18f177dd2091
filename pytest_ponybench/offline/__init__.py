"""The local model server the offline models run on, and the behaviours it serves.

`wire` is the Messages wire format, `script` what one cell's agents are to do, `agents` the
table of model names and behaviours (with `coin` and `escape`, two agents of their own), `server`
the HTTP server and its cells, `endpoint` the server as the session's `core.endpoint.Endpoint`.
"""

__all__: list[str] = []
