"""Verification: a hand history's (or a drive history's) every claim re-derived and checked.
"""
