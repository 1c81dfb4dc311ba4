from enum import StrEnum


class AdvancedCommerceChangeReason(StrEnum):
    APPLY_OFFER = "APPLY_OFFER"
    DOWNGRADE = "DOWNGRADE"
    UPGRADE = "UPGRADE"

    def __str__(self) -> str:
        return str(self.value)
