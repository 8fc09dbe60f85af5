"""Pathshala lesson code: pure-Python helpers shared by the build and the browser."""
