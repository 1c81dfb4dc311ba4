from enum import StrEnum


class AdvancedCommerceOfferPeriod(StrEnum):
    P1M = "P1M"
    P1W = "P1W"
    P1Y = "P1Y"
    P2M = "P2M"
    P2W = "P2W"
    P3D = "P3D"
    P3M = "P3M"
    P6M = "P6M"
    P9M = "P9M"

    def __str__(self) -> str:
        return str(self.value)
