"""The public town's addresses: the map at the root, its live part, the feed (HTML and Atom)."""

from django.urls import path

from clockford.public import views

app_name = "public"

urlpatterns = [
    path("", views.town_map, name="map"),
    path("town/now", views.town_now, name="now"),
    path("feed", views.feed, name="feed"),
    path("feed.atom", views.feed_atom, name="feed-atom"),
    path("static/public/<path:path>", views.static_file, name="static"),
]
