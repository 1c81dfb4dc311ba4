from enum import StrEnum


class CampaignStatusOffersItemBatchesItemKind(StrEnum):
    CUSTOM = "custom"
    ONETIMEUSE = "oneTimeUse"

    def __str__(self) -> str:
        return str(self.value)
