from enum import StrEnum


class BatchAdvancedCommerceRequestType(StrEnum):
    ADVANCED_COMMERCE = "advanced-commerce"

    def __str__(self) -> str:
        return str(self.value)
