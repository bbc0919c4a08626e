"""Order and checkout service: carts, stock reservation, coupons and the order lifecycle."""
