from enum import StrEnum


class BatchIntroductoryOfferEligibilityRequestType(StrEnum):
    INTRODUCTORY_OFFER_ELIGIBILITY = "introductory-offer-eligibility"

    def __str__(self) -> str:
        return str(self.value)
