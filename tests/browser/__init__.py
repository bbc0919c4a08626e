"""Tests that load pages in a real, headless Chromium (Debian's, driven by Playwright): see conftest.py."""
