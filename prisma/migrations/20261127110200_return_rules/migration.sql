-- Return rules replace the two hold thresholds beside the return setting. A shop's setting stays its default
-- (returnRule, returnCourierId); each threshold it had becomes a hold rule ahead of it, so no shop's returns are
-- decided differently after this migration.
ALTER TABLE "ShopSettings" ADD COLUMN     "returnRules" TEXT NOT NULL DEFAULT '[]';

UPDATE "ShopSettings" SET "returnRules" = (
  SELECT COALESCE(json_agg(rules.rule ORDER BY rules.position)::text, '[]')
  FROM (
    SELECT 1 AS position, json_build_object(
      'name', 'Valuable returns',
      'reasons', '[]'::json,
      'minValueRupees', "returnHoldFromPaise" / 100.0,
      'maxValueRupees', NULL,
      'pincodePrefixes', '[]'::json,
      'tags', '[]'::json,
      'action', 'hold',
      'courierId', NULL
    ) AS rule
    WHERE "returnHoldFromPaise" IS NOT NULL
    UNION ALL
    SELECT 2, json_build_object(
      'name', 'Held PIN codes',
      'reasons', '[]'::json,
      'minValueRupees', NULL,
      'maxValueRupees', NULL,
      'pincodePrefixes', to_json(array_remove(string_to_array(replace("returnHoldPincodes", ' ', ''), ','), '')),
      'tags', '[]'::json,
      'action', 'hold',
      'courierId', NULL
    )
    WHERE replace("returnHoldPincodes", ' ', '') <> ''
  ) AS rules
);

ALTER TABLE "ShopSettings" DROP COLUMN "returnHoldFromPaise",
DROP COLUMN "returnHoldPincodes";
