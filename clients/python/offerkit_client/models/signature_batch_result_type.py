from enum import StrEnum


class SignatureBatchResultType(StrEnum):
    ADVANCED_COMMERCE = "advanced-commerce"
    CONNECT_API_TOKEN = "connect-api-token"
    INTRODUCTORY_OFFER_ELIGIBILITY = "introductory-offer-eligibility"
    LEGACY_PROMOTIONAL_OFFER = "legacy-promotional-offer"
    PROMOTIONAL_OFFER = "promotional-offer"
    SERVER_API_TOKEN = "server-api-token"

    def __str__(self) -> str:
        return str(self.value)
