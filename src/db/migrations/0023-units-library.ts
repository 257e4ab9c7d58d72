import type { Migration } from './migration';

/** The reference Units every SDC4 studio ships, published in the library project so that every modeler can name
 * them by ct_id on a number field (drafts and assembly): the SI base units, common derived units and counts. Labels
 * are the symbols a units element carries (UCUM where it has one); `enums` holds other spellings. The Dublin Core
 * terms prefix is seeded as `dcterms`, the name clients look for; `dct` stays as an alias of the same namespace. */
export const unitsLibrary: Migration = {
  id: '0023-units-library',
  sql: `
INSERT INTO units (ct_id, label, description, enums, status, project_id)
SELECT v.ct_id, v.label, v.description, v.enums, 'published', p.id
  FROM (VALUES
    ('agp8kbhwb3261ynkk0ki075o', 'm', 'Metre, the SI base unit of length', ARRAY['metre', 'meter']::text[]),
    ('cflje9tkq1jtwifyazfa7ug6', 'kg', 'Kilogram, the SI base unit of mass', ARRAY['kilogram']::text[]),
    ('jl7vuun33mipe6j19xn4qhf7', 's', 'Second, the SI base unit of time', ARRAY['second', 'sec']::text[]),
    ('nivhjhm8jaaqsdxbk63l6aiv', 'A', 'Ampere, the SI base unit of electric current', ARRAY['ampere']::text[]),
    ('vte48jnol02fdmhfd8vw2rbw', 'K', 'Kelvin, the SI base unit of thermodynamic temperature', ARRAY['kelvin']::text[]),
    ('x8f2ualfqcuhnq05gugdcs1t', 'mol', 'Mole, the SI base unit of amount of substance', ARRAY['mole']::text[]),
    ('umo7ay4d3y88ljml35wgz9qo', 'cd', 'Candela, the SI base unit of luminous intensity', ARRAY['candela']::text[]),
    ('g57zf1olv69uxlvb015ci5gg', 'g', 'Gram (mass)', ARRAY['gram']::text[]),
    ('fdz7tascppd2hnc9qbvxzhit', 'mg', 'Milligram (mass)', ARRAY['milligram']::text[]),
    ('cg4c4i8e7jxl3oti4700t4bo', 'ug', 'Microgram (mass)', ARRAY['µg', 'microgram', 'mcg']::text[]),
    ('q64hqz7iree8njdejfxc72jv', 'lb', 'Pound (mass, avoirdupois)', ARRAY['pound', '[lb_av]']::text[]),
    ('zn55ks6uzax1k0f4a5dz11z3', 'km', 'Kilometre (length)', ARRAY['kilometre', 'kilometer']::text[]),
    ('spv2294p3cikc9fy4lwtng1j', 'cm', 'Centimetre (length)', ARRAY['centimetre', 'centimeter']::text[]),
    ('budzel5uk8x5udzqmsdtep3f', 'mm', 'Millimetre (length)', ARRAY['millimetre', 'millimeter']::text[]),
    ('nsfxw16crofgqp6sdy5znjcx', 'in', 'Inch (length)', ARRAY['inch', '[in_i]']::text[]),
    ('kreig5dydfuc31wljsgk79ca', 'm2', 'Square metre (area)', ARRAY['m²']::text[]),
    ('hluikthlmocgc9vh2b10ly9d', 'm3', 'Cubic metre (volume)', ARRAY['m³']::text[]),
    ('a53yugd2y9h9fl0ujs2lqbqr', 'L', 'Litre (volume)', ARRAY['litre', 'liter', 'l']::text[]),
    ('tzjpy38ace5lvyvbc6vpdwuk', 'mL', 'Millilitre (volume)', ARRAY['millilitre', 'milliliter', 'ml']::text[]),
    ('cg58mft160efx7pxhvk21535', 'min', 'Minute (time)', ARRAY['minute']::text[]),
    ('psvrdf30g3jhjcl3pq24squo', 'h', 'Hour (time)', ARRAY['hour', 'hr']::text[]),
    ('hh2wm19k2c3zoi98yezo52sp', 'd', 'Day (time)', ARRAY['day']::text[]),
    ('kybcypp5uvdh13dq2zn4yzoa', 'wk', 'Week (time)', ARRAY['week']::text[]),
    ('ubkcaqftxwwbuyfivvnnhbio', 'mo', 'Month (time)', ARRAY['month']::text[]),
    ('ldv0s7hooiby5xd4cczk1ru8', 'a', 'Year (time)', ARRAY['year', 'yr']::text[]),
    ('z412i7y32tl9vpwra3nsdxd7', 'Hz', 'Hertz, frequency (per second)', ARRAY['hertz', '/s']::text[]),
    ('msk6wb9g2tkf604q3q9pdeog', '/min', 'Per minute (a rate: beats, breaths, events per minute)', ARRAY['per minute', '1/min', 'beats/min']::text[]),
    ('jlmri5njz4e43rj52b3pmr5b', '/h', 'Per hour (a rate)', ARRAY['per hour', '1/h']::text[]),
    ('at6p117i0p8kl9xkiqzog924', 'N', 'Newton (force)', ARRAY['newton']::text[]),
    ('c5mhf3x9t895onbs7foy0py3', 'Pa', 'Pascal (pressure)', ARRAY['pascal']::text[]),
    ('n0aup6zb9lhwg3qcke1dsfwn', 'kPa', 'Kilopascal (pressure)', ARRAY['kilopascal']::text[]),
    ('kdof07bh1kp23tnrhsyr31vr', 'mmHg', 'Millimetre of mercury (pressure, e.g. blood pressure)', ARRAY['mm[Hg]', 'millimetre of mercury']::text[]),
    ('rbrdkch8elizol7tk2sdved7', 'J', 'Joule (energy)', ARRAY['joule']::text[]),
    ('i9c4n19r05kt4phkwcxpwqxd', 'kcal', 'Kilocalorie (energy)', ARRAY['kilocalorie', 'Cal']::text[]),
    ('gsj89vnsevmgo4o9321oa2jn', 'W', 'Watt (power)', ARRAY['watt']::text[]),
    ('pu95zapyxc3geyvvgzp692sv', 'V', 'Volt (electric potential)', ARRAY['volt']::text[]),
    ('l1tzrx5ggzsmw4s2e1kntoqo', 'Cel', 'Degree Celsius (temperature)', ARRAY['°C', 'degree Celsius']::text[]),
    ('n73tjqtpnx5ddyy2auqy4ehi', '[degF]', 'Degree Fahrenheit (temperature)', ARRAY['°F', 'degree Fahrenheit']::text[]),
    ('nwd9anh2612g6qaa1tif2bya', 'kg/m2', 'Kilogram per square metre (body mass index)', ARRAY['kg/m²', 'BMI']::text[]),
    ('cvbydvmqne53cxxfa1ltb6eb', 'mg/dL', 'Milligram per decilitre (concentration)', ARRAY['milligram per decilitre']::text[]),
    ('qpasbp25kuemk50ao5ngvh4t', 'mmol/L', 'Millimole per litre (concentration)', ARRAY['millimole per litre']::text[]),
    ('wn25wdflde06epfb5l0bbqfw', 'g/L', 'Gram per litre (concentration)', ARRAY['gram per litre']::text[]),
    ('ubbn913zzg6w9rd5xpsz76zo', 'm/s', 'Metre per second (speed)', ARRAY['metre per second']::text[]),
    ('u0pq4vje34gflv1q4lx595p6', 'km/h', 'Kilometre per hour (speed)', ARRAY['kilometre per hour']::text[]),
    ('ipwoxwujdmwercb2nwi33md4', '%', 'Percent (a fraction of 100)', ARRAY['percent', 'pct']::text[]),
    ('t8dgam2c5pd74dbodp3ehixv', '1', 'Unity: a pure number or ratio without units', ARRAY['ratio', 'unitless']::text[]),
    ('lvan1349prfha814xovgf5wy', 'people', 'A count of people', ARRAY['persons', 'person']::text[]),
    ('xr0gbceq275l5bqhc5z4k0pp', 'items', 'A count of items', ARRAY['item', 'count']::text[]),
    ('cq2hw09u2q2rugooo1j75xwf', 'events', 'A count of events', ARRAY['event', 'occurrences']::text[]),
    ('pnc026utqzu6kjnp021e311b', 'USD', 'US dollar (currency)', ARRAY['$', 'dollar']::text[])
  ) AS v (ct_id, label, description, enums)
  JOIN projects p ON p.is_library
ON CONFLICT (ct_id) DO NOTHING;

UPDATE namespaces SET abbrev = 'dcterms' WHERE abbrev = 'dct' AND NOT EXISTS (SELECT 1 FROM namespaces WHERE abbrev = 'dcterms');
INSERT INTO namespaces (abbrev, uri) VALUES ('dct', 'http://purl.org/dc/terms/') ON CONFLICT (abbrev) DO NOTHING;
`,
};

/** How many Units the library seeds (tests count the library's entries with it). */
export const LIBRARY_UNITS_COUNT = 50;
