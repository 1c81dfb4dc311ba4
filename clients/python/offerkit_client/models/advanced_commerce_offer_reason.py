from enum import StrEnum


class AdvancedCommerceOfferReason(StrEnum):
    ACQUISITION = "ACQUISITION"
    RETENTION = "RETENTION"
    WIN_BACK = "WIN_BACK"

    def __str__(self) -> str:
        return str(self.value)
