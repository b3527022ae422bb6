table.insert(game_order, "later")
