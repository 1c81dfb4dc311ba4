from enum import StrEnum


class BatchPromotionalOfferRequestType(StrEnum):
    PROMOTIONAL_OFFER = "promotional-offer"

    def __str__(self) -> str:
        return str(self.value)
