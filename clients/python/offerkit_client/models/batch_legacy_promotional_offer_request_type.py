from enum import StrEnum


class BatchLegacyPromotionalOfferRequestType(StrEnum):
    LEGACY_PROMOTIONAL_OFFER = "legacy-promotional-offer"

    def __str__(self) -> str:
        return str(self.value)
