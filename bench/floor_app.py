"""Streamlit's own per-session floor for the audience benchmark (bench/audience.py): a two-element page (a title
and a line of text), and a second such page that a viewer's walk switches to. Registered with st.navigation like
the app's pages (hidden menu), so a deep link and a page switch travel the same way as in the app."""
import streamlit as st


def first() -> None:
    st.title("Floor: two elements")
    st.write("Streamlit's own per-session cost: a title and this line.")


def second() -> None:
    st.title("Floor: another two elements")
    st.write("The page a floor viewer switches to.")


st.navigation([st.Page(first, title="Floor", default=True), st.Page(second, title="Floor two", url_path="two")],
              position="hidden").run()
