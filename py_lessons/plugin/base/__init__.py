"""What every stage of the plugin shares: its errors, the catalogue of reader-facing text, the one
reader of YAML block bodies, HTML helpers, the Bangla plot font and the site's URL layout.
Imports nothing of the other stages."""
