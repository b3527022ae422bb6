-- the map environment (fixture): 0.34 calls crawl.setfenv
local setenv = crawl and crawl.setfenv
