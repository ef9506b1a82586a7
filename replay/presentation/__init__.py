"""Presentation: a history shown to a person, the audit document, the rules reference.
"""
