"""A service written phrase by phrase from item 3 of issue 5: violations next to their clean counterparts."""
