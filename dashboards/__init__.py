"""The Streamlit dashboard: entry script app.py, pages in views/, pure HTML renderers."""
