from enum import StrEnum


class CampaignStatusAppStoreConnectItemState(StrEnum):
    CREATED = "created"
    FAILED = "failed"
    PLANNED = "planned"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
