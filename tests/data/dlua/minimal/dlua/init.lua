-- A second crawl_require of helper.lua runs it no more.
crawl_require('dlua/helper.lua')
