"""The dashboard's page scripts, run by st.navigation from dashboards/app.py."""
