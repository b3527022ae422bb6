-- Current Crawl's form: the .des files are listed, not named.
for _, file in ipairs(file.datadir_files_recursive("dat/des", ".des")) do
  dgn.register_des_file("des/" .. file)
end
