# -*- coding: utf-8 -*-
# ruff: noqa: UP009 -- Python 2 era code, ported line by line
"""The community portal (2013), ported to Python 3."""
