game_order = {"base"}
