"""Host a built site for a classroom: ``python -m py_lessons.host SITE_DIR [--port N] [--lan]``.

policy.py   what each file is sent with (type, caching, cross-origin isolation)
server.py   the HTTP server on aiohttp: only files inside the site, an answer to every request,
            descriptors kept for the files (gzip siblings, validators, ranges, sendfile: aiohttp's)
summary.py  the counts behind the one-line access summary
lan.py      the laptop's addresses learners can reach, and the URL as a QR code for the terminal
cli.py      the command: start, announce, report, stop

Needs the optional extra "host": aiohttp (the server) and segno (the QR code, imported for --lan).
"""
