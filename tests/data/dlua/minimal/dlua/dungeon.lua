function minimal_setup(e) e.tags("minimal") e.weight(util.twice(4)) end
