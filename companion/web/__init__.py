"""The table page: the box served over HTTP to phones and laptops (issue #15). Imported only
when the web is on."""
