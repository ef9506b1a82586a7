"""Hand-history formats: the document, its JSON and text encodings, import, and building a
history from stored events with its derived results.
"""
