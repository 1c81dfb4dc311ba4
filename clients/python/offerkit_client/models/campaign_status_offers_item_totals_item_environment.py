from enum import StrEnum


class CampaignStatusOffersItemTotalsItemEnvironment(StrEnum):
    PRODUCTION = "PRODUCTION"
    SANDBOX = "SANDBOX"

    def __str__(self) -> str:
        return str(self.value)
