from enum import StrEnum


class AdvancedCommerceEffective(StrEnum):
    IMMEDIATELY = "IMMEDIATELY"
    NEXT_BILL_CYCLE = "NEXT_BILL_CYCLE"

    def __str__(self) -> str:
        return str(self.value)
