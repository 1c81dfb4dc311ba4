from enum import StrEnum


class CampaignStatusAppStoreConnectItemOfferKind(StrEnum):
    INTRODUCTORYOFFER = "introductoryOffer"
    OFFERCODE = "offerCode"
    PROMOTIONALOFFER = "promotionalOffer"
    WINBACKOFFER = "winBackOffer"

    def __str__(self) -> str:
        return str(self.value)
