"""Host a built site for a classroom: ``python -m py_lessons.host SITE_DIR [--port N] [--lan]``.

policy.py   what each file is sent with (type, caching, cross-origin isolation)
server.py   the HTTP server (gzip siblings, validators, byte ranges, bodies streamed with sendfile)
summary.py  the counts behind the one-line access summary
lan.py      the laptop's addresses learners can reach, and the URL as a QR code for the terminal
cli.py      the command: start, announce, report, stop

Standard library only, except the QR code (segno, the optional extra "host"), imported for --lan.
"""
