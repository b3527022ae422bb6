function minimal_setup(e) e.tags("minimal") e.weight(util.twice(4)) end
-- The game runs a map's hooks once the map is on its level; the fixture
-- keeps the name of the last one set.
function dgn.hook(map, name, fn) dgn.last_hook = name end
