-- Golden runs stored before this migration hold the titles of the records they found and missed,
-- resolved under the runner's access, and shown to whoever opened the set. Runs now store record
-- ids only (the records each question measured and the runner's ranking) and are resolved under
-- the viewer's access every time they are shown. The old rows cannot be resolved that way (they
-- lack the ranking) and carry titles their viewers may not read: they are removed. A run is a
-- measurement; running the set again makes a new one.
DELETE FROM "golden_runs";
