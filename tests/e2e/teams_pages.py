"""The director's teams pages, for the teams browser journeys: create a teams event and
save its settings."""

from tournaments.models import Tournament


def create_teams_event(page, base: str, name: str) -> Tournament:
    page.goto(f"{base}/director/")
    page.click("#new-tournament")
    page.fill("input[name=name]", name)
    page.fill("input[name=date]", "2025-06-07")
    page.select_option("select[name=event_type]", "teams")
    page.select_option("select[name=scoring_method]", "vps")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("#teams-link")
    return Tournament.objects.get(name=name)


def save_team_settings(page, base, tournament, **values) -> None:
    page.goto(f"{base}/director/{tournament.pk}/teams/")
    for name, value in values.items():
        selector = f"#team-settings [name={name}]"
        if page.locator(f"select{selector.split(' ', 1)[1]}").count():
            page.select_option(f"#team-settings select[name={name}]", value)
        else:
            page.fill(selector, value)
    page.click("#save-settings")
    page.wait_for_selector(".message.success")
