import { Banner, List } from "@shopify/polaris";

export interface ProblemView {
  code: string;
  message: string;
  fix: string;
}

export function ProblemsBanner({ problems, title = "This order can't be shipped yet" }: { problems: ProblemView[]; title?: string }) {
  if (problems.length === 0) return null;
  return (
    <Banner tone="warning" title={title}>
      <List>
        {problems.map((problem) => (
          <List.Item key={problem.code}>
            {problem.message} {problem.fix}
          </List.Item>
        ))}
      </List>
    </Banner>
  );
}
