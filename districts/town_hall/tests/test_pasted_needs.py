"""The Directory on needs with something pasted into them, and on broken English, which the eleventh
generated evaluation (tests/bench/directory_needs/eleventh.py) holds: a URL, whose host names the product
and whose path, query and other labels were searched as words ("watch", "com", "ops"); an error message
naming its product only by its client library or its command ("botocore", "kubectl"); a kind named by
its trade's acronym ("ETL", "SBOM"); and "I not understand ...", which left out what followed as if it
were unwanted. Each test is on a small census written here, or on the reading alone."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("summarize https://www.youtube.com/watch?v=dQw4w9WgXcQ", ["summarize", "youtube"]),
        (
            "open https://acme.atlassian.net/browse/OPS-1182 and tell me the status",
            ["open", "atlassian", "tell", "status"],
        ),
        ("https://app.hubspot.com/contacts/123/record/0-1/456 update it", ["hubspot", "update"]),
        ("linear issue https://linear.app/acme/issue/ENG-77", ["linear", "issue"]),
        # the word before a maker's domain that names one of its products is kept
        ("read this doc https://docs.google.com/document/d/1xYz/edit", ["read", "doc", "google", "docs"]),
        # the label before a country's second level
        ("headlines from https://www.bbc.co.uk/news", ["headlines", "bbc"]),
        ("www.notion.so/acme/Roadmap-8f3e2a tidy it", ["notion", "tidy"]),
        ("https://user:secret@gitlab.com/acme/api.git", ["gitlab"]),
        # a host that names no product is a website
        ("scrape https://shop.example.com/collections/all", ["scrape", "website"]),
        ("is http://localhost:3000/health up", ["website", "up"]),
        ("ping http://192.168.1.10:8080/", ["ping", "website"]),
        ("http://[::1]:80/ and redis", ["redis"]),
        # no URL: a mail address, a bare domain and the words http and www are read as before
        ("mail bob@example.com the report", ["mail", "bob", "example", "com", "report"]),
        ("deploy to my-app.vercel.app", ["deploy", "app", "vercel"]),
        ("http status codes and www subdomains", ["http", "status", "codes", "www", "subdomains"]),
    ],
)
def test_a_url_is_read_as_the_product_its_host_names(need: str, searched: list[str]) -> None:
    assert services.terms_of(services.unframed(need)[0]) == searched


def test_a_youtube_link_finds_youtube_servers_not_servers_of_its_path_and_its_com(db: None) -> None:
    """It searched "https", "www", "youtube", "com", "watch" and the video's id: the servers that write
    "watch" and the com namespaces came before the one about YouTube."""
    take(
        [
            listing("com.watch/mcp", description="Watch files and folders for changes."),
            listing("io.github.a/link-reader", description="Reads www and https links and summarize pages."),
            listing("io.github.b/tube-tools", description="Summarize YouTube videos from their transcripts."),
        ]
    )
    assert found_names("summarize https://www.youtube.com/watch?v=dQw4w9WgXcQ")[0] == "io.github.b/tube-tools"


def test_an_error_naming_its_product_by_its_client_library_finds_the_product(db: None) -> None:
    take(
        [
            listing("io.github.a/locate", description="Locate files on disk when the path is unable to be found."),
            listing("io.github.aws/aws-mcp", description="Call AWS APIs with your credentials."),
        ]
    )
    need = "botocore.exceptions.NoCredentialsError: Unable to locate credentials"
    assert found_names(need)[0] == "io.github.aws/aws-mcp"


def test_a_kind_named_by_its_trade_s_acronym_finds_servers_that_spell_it_out(db: None) -> None:
    """A server that writes "software bill of materials" and never "SBOM" was not found at all."""
    take(
        [
            listing("io.github.a/containers", description="Run and inspect containers."),
            listing("io.github.b/bom", description="Software bill of materials in CycloneDX and SPDX for images."),
        ]
    )
    assert found_names("SBOM for our containers") == ["io.github.a/containers", "io.github.b/bom"]


@pytest.mark.parametrize(
    ("need", "wanted", "unwanted"),
    [
        # broken English leaves the "do" out: what follows "I not understand" is the need itself
        ("i not understand my aws bill, who can explain me", ["understand", "aws", "bill", "explain"], ()),
        ("we not know which crm to use", ["crm"], ()),
        # and "I not want" is "I do not want"
        ("i not want crypto news", [], (("crypto", "news"),)),
        ("a tracker, we not use jira", ["tracker"], (("jira",),)),
        # as before: "not" after a verb, and a bare "not" where a clause begins
        ("weather forecasts, not aviation", ["weather", "forecasts"], (("aviation",),)),
        ("it is not loading", ["loading"], ()),
    ],
)
def test_a_subject_before_not_is_read_as_do_not(need: str, wanted: list[str], unwanted: tuple[tuple[str, ...]]) -> None:
    assert services.terms_of(services.wanted_and_not(need)[0]) == wanted
    assert services.excluded_of(need) == unwanted


def test_two_products_of_one_maker_find_a_server_of_both_not_the_maker_s_other_servers(db: None) -> None:
    """ "save my gmail attachments to google drive": Gmail's maker is Google, whose googleapis namespace
    publishes many servers; each of them holds "google", which was counted as a word saying which of
    them was wanted, and Cloud Run's and Cloud SQL's came first."""
    take(
        [
            *(
                listing(f"com.googleapis.{s}/mcp", description=f"Google Cloud {s}: manage {s} on Google Cloud.")
                for s in ("run", "sqladmin", "compute", "bigtable", "composer")
            ),
            listing("io.github.a/workspace", description="Gmail messages and attachments, and Google Drive files."),
        ]
    )
    assert found_names("save my gmail attachments to google drive")[0] == "io.github.a/workspace"
