# Sourced at the start of each session in the docs (`. docs/session.sh`, in a terminal in Herald's folder).
# H: where Herald serves (`make run`'s address unless H is set already).
H=${H:-http://127.0.0.1:8000}
# json EXPR: EXPR evaluated on the JSON document read from stdin, `d`; a string printed as it is, anything else as JSON.
json() { python3 -c "import json,sys; d=json.load(sys.stdin); v=eval(sys.argv[1], {}, {'d': d}); print(v if isinstance(v, str) else json.dumps(v))" "$1"; }
