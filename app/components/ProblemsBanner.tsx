import { Banner, List } from "@shopify/polaris";
import { problemInWords, type ProblemParams } from "~/shopify/readiness-checks";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";

export interface ProblemView {
  code: string;
  message: string;
  fix: string;
  params?: ProblemParams;
}

export function ProblemsBanner({ problems }: { problems: ProblemView[] }) {
  const t = useAdminStrings().ship.problems;
  const language = useAdminLanguage();
  if (problems.length === 0) return null;
  return (
    <Banner tone="warning" title={t.title}>
      <List>
        {problems.map((problem) => {
          const { message, fix } = problemInWords(problem, language);
          return (
            <List.Item key={`${problem.code}-${problem.params?.parcel?.number ?? 0}`}>
              {message} {fix}
            </List.Item>
          );
        })}
      </List>
    </Banner>
  );
}
