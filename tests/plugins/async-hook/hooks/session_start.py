"""Answer at once that the work goes on in the background, as long-running hooks do."""

import json

print(json.dumps({"async": True, "asyncTimeout": 180000}))
