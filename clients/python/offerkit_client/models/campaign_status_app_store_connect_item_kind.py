from enum import StrEnum


class CampaignStatusAppStoreConnectItemKind(StrEnum):
    CUSTOMCODE = "customCode"
    OFFER = "offer"
    ONETIMEUSE = "oneTimeUse"

    def __str__(self) -> str:
        return str(self.value)
