import { Banner, List } from "@shopify/polaris";
import { problemInWords, type ProblemParams } from "~/shopify/readiness-checks";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";

export interface ProblemView {
  code: string;
  message: string;
  fix: string;
  params?: ProblemParams;
}

export function ProblemsBanner({ problems, title }: { problems: ProblemView[]; title?: string }) {
  const t = useAdminStrings().ship.problems;
  const language = useAdminLanguage();
  if (problems.length === 0) return null;
  return (
    <Banner tone="warning" title={title ?? t.title}>
      <List>
        {problems.map((problem) => ({ code: problem.code, ...problemInWords(problem, language) })).map((problem) => (
          <List.Item key={problem.code}>
            {problem.message} {problem.fix}
          </List.Item>
        ))}
      </List>
    </Banner>
  );
}
